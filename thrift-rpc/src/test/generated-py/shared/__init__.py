__all__ = ['ttypes', 'constants', 'SharedService']
