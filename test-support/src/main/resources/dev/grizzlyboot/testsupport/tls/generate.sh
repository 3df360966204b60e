#!/usr/bin/env bash
# Made the test certificates in this directory, once; they are committed so that every run uses
# the same ones. Test use only: the private keys are public. Rerun (from this directory) only to
# replace them, e.g. before 2125 when they expire.
#   ca.pem / ca.key            the test CA that signs server.pem and client.pem
#   server.pem / server.key    memcached's certificate: CN=localhost, SAN DNS:localhost, IP:127.0.0.1
#   other-host.pem / .key      signed by the CA, but for another host (DNS:memcached.example only):
#                              host-name verification must reject it on 127.0.0.1
#   client.pem / client.key    a client certificate for mutual TLS (CN=grizzly-boot-test-client)
#   wrong-ca.pem / wrong-ca.key  a second CA that signed nothing here: trusting it must fail
#   truststore.p12             ca.pem as a PKCS#12 trust store (password "changeit")
#   wrong-truststore.p12       wrong-ca.pem as a PKCS#12 trust store (password "changeit")
#   client.p12                 client.key + client.pem (+ ca.pem) as a PKCS#12 key store (password "changeit")
set -euo pipefail
days=36500
openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days $days -subj "/CN=grizzly-boot test CA" \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
  -keyout ca.key -out ca.pem
openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days $days -subj "/CN=grizzly-boot wrong CA" \
  -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
  -keyout wrong-ca.key -out wrong-ca.pem
sign() { # name subject extensions
  openssl req -newkey rsa:2048 -nodes -sha256 -subj "$2" -keyout "$1.key" -out "$1.csr"
  openssl x509 -req -sha256 -days $days -in "$1.csr" -CA ca.pem -CAkey ca.key -CAcreateserial \
    -extfile <(printf "%s" "$3") -out "$1.pem"
  rm "$1.csr"
}
sign server "/CN=localhost" "subjectAltName=DNS:localhost,IP:127.0.0.1
extendedKeyUsage=serverAuth
keyUsage=critical,digitalSignature,keyEncipherment"
sign other-host "/CN=memcached.example" "subjectAltName=DNS:memcached.example
extendedKeyUsage=serverAuth
keyUsage=critical,digitalSignature,keyEncipherment"
sign client "/CN=grizzly-boot-test-client" "extendedKeyUsage=clientAuth
keyUsage=critical,digitalSignature,keyEncipherment"
rm -f ca.srl truststore.p12 wrong-truststore.p12 client.p12
keytool -importcert -noprompt -alias ca -file ca.pem -keystore truststore.p12 -storetype PKCS12 -storepass changeit
keytool -importcert -noprompt -alias ca -file wrong-ca.pem -keystore wrong-truststore.p12 -storetype PKCS12 -storepass changeit
openssl pkcs12 -export -name client -inkey client.key -in client.pem -certfile ca.pem -out client.p12 -passout pass:changeit
chmod 644 ./*.key ./*.p12
