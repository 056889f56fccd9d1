import cuda.tile as ct


@ct.function
def doubled(t):
    return t * 2


@ct.kernel
def nested_helpers(x):
    def make(k):
        def g(y):
            return y * 2 + k

        def f(y):
            return g(y) + 100
        return f
    ct.scatter(x, (), make(30)(ct.gather(x, ())))


@ct.kernel
def module_helper(x, y):
    t = doubled(ct.load(x, index=(0,), shape=(16,)))
    ct.store(y, index=(0,), tile=t)


@ct.kernel
def repeated_helper(x, y):
    def scale(t, k):
        return t * k
    t = ct.load(x, index=(0,), shape=(16,))
    t = scale(doubled(scale(t, 2.0)), 3.0)
    ct.store(y, index=(0,), tile=t)
