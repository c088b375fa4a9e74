def a():
    pass

def b():
    pass
    print('a')
