__all__ = ['ttypes', 'constants', 'Calculator']
