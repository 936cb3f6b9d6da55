def issparse(x):
    return False
