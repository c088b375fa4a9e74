def a():
    print('a')
    pass

def b():
    pass
