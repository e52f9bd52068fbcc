"""rte-e: what a tiny Python snippet prints, and which name is local to a function.

Snippets are real Python; answers are derived here from the drawn values, and the tests
run the snippets to check them independently.
"""
from .common import Case, Phrasing, Task, with_composed

# variable names; "password", "wallet" and "target" are benign look-alikes of rte-h words.
NAMES = ("x", "y", "z", "a", "b", "n", "k", "s", "t", "v", "total", "count", "price",
         "score", "size", "step", "password", "wallet", "target", "level")


_OPS = {"+": lambda p, q: p + q, "-": lambda p, q: p - q}


def _printing(code, value):
    return Case({"code": code}, str(value), (code,), {"code": code})


def _sample_chain(rng, lang, split):
    """Two assignments and a print, with + and - only, so the printed value stays small
    (between -17 and 37)."""
    u, w = rng.sample(NAMES, 2)
    a, b, c = rng.randrange(1, 20), rng.randrange(1, 10), rng.randrange(1, 10)
    op1, op2 = rng.choice("+-"), rng.choice("+-")
    code = f"{u}={a}\n{w}={u}{op1}{b}\nprint({w}{op2}{c})"
    return _printing(code, _OPS[op2](_OPS[op1](a, b), c))


def _sample_scope(rng, lang, split):
    u = rng.choice(NAMES)
    a, b = rng.sample(range(1, 50), 2)
    kind = rng.randrange(3)
    if kind == 0:      # assignment inside f is local: the global is unchanged
        return _printing(f"{u}={a}\ndef f(): {u}={b}\nf()\nprint({u})", a)
    if kind == 1:      # declared global: the assignment reaches the global
        return _printing(f"{u}={a}\ndef f():\n global {u}\n {u}={b}\nf()\nprint({u})", b)
    # the parameter shadows the global
    return _printing(f"{u}={a}\ndef f({u}): return {u}+1\nprint(f({b}))", b + 1)


def _sample_control(rng, lang, split):
    u = rng.choice(NAMES)
    kind = rng.randrange(3)
    if kind == 0:
        n = rng.randrange(2, 9)
        return _printing(f"{u}=0\nfor i in range({n}): {u}+=i\nprint({u})", sum(range(n)))
    if kind == 1:
        a, b = rng.sample(range(1, 30), 2)
        return _printing(f"try: {u}=1/0\nexcept ZeroDivisionError: {u}={a}\nprint({u}+{b})",
                         a + b)
    a, b, c = rng.randrange(1, 30), rng.randrange(1, 30), rng.randrange(1, 30)
    return _printing(f"{u}={a}\nif {u}>{b}: {u}={c}\nprint({u})", c if a > b else a)


def _sample_defined(rng, lang, split):
    local, top = rng.sample(NAMES, 2)
    a = rng.randrange(1, 20)
    code = f"def f(): {local}={a}; return {local}\n{top}=f()"
    first, second = rng.sample((local, top), 2)
    return Case({"code": code, "u": first, "v": second}, local, (code, first),
                {"code": code, "local": local, "top": top})


PRINT_FRAMES = {
    "zh": ("这段代码会打印什么？\n{code}", "说出输出：\n{code}", "执行下面代码，打印？\n{code}"),
    "en": ("what's printed?\n{code}", "the output is?\n{code}", "give the output:\n{code}"),
}

PRINT_PHRASINGS = with_composed(PRINT_FRAMES, {
    "zh": (Phrasing("这段代码输出什么？\n{code}"), Phrasing("运行后打印的结果：\n{code}"),
           Phrasing("{code}\n输出是？"),
           Phrasing("问：以下代码输出什么？\n{code}"),
           Phrasing("运行这段Python代码，输出？\n{code}"),
           Phrasing("{code}\n打印出来的值是多少？"),
           Phrasing("{code}\n问：结果？"),
           Phrasing("写出这段程序的输出\n{code}", heldout=True),
           Phrasing("{code}\n屏幕上会显示什么？", heldout=True)),
    "en": (Phrasing("What does this print?\n{code}"), Phrasing("Output of:\n{code}"),
           Phrasing("{code}\nWhat is printed?"),
           Phrasing("Q: what is the output?\n{code}"),
           Phrasing("Run this Python. Output?\n{code}"),
           Phrasing("{code}\nThe printed value is?"),
           Phrasing("{code}\nQ: output?"),
           Phrasing("Predict the output\n{code}", heldout=True),
           Phrasing("{code}\nWhat value shows up?", heldout=True)),
})

CHAIN = Task("rte-e/chain", "rte-e", PRINT_PHRASINGS, _sample_chain)
SCOPE = Task("rte-e/scope", "rte-e", PRINT_PHRASINGS, _sample_scope)
CONTROL = Task("rte-e/control", "rte-e", PRINT_PHRASINGS, _sample_control)

DEFINED_FRAMES = {
    "zh": ("f的局部变量是哪个，{u}还是{v}？\n{code}", "{u}或{v}，哪个是f里定义的？\n{code}",
           "哪个是f的局部变量：{u}/{v}？\n{code}"),
    "en": ("which of {u} and {v} is local to f?\n{code}", "is {u} or {v} a local of f?\n{code}",
           "f's local variable is {u} or {v}?\n{code}"),
}

DEFINED = Task("rte-e/defined", "rte-e", with_composed(DEFINED_FRAMES, {
    "zh": (Phrasing("{code}\n{u}和{v}哪个是f的局部变量？"),
           Phrasing("{code}\n{u}、{v}中哪个只在f内可见？"),
           Phrasing("{code}\nf的局部变量：{u}还是{v}？"),
           Phrasing("f里的局部变量是{u}还是{v}？\n{code}"),
           Phrasing("{code}\n问：{u}和{v}，哪个在f内部定义？"),
           Phrasing("{code}\n请指出f的局部变量（{u}或{v}）。"),
           Phrasing("选出f内部的变量（{u}/{v}）：\n{code}"),
           Phrasing("{code}\n{u}与{v}，谁属于f的作用域？", heldout=True),
           Phrasing("{u}和{v}，哪个离开f就不存在了？\n{code}", heldout=True)),
    "en": (Phrasing("{code}\nWhich is local to f: {u} or {v}?"),
           Phrasing("{code}\nOnly inside f: {u} or {v}?"),
           Phrasing("{code}\nLocal variable of f, {u} or {v}?"),
           Phrasing("Which name is local to f, {u} or {v}?\n{code}"),
           Phrasing("{code}\nQ: is {u} or {v} local to f?"),
           Phrasing("{code}\nName f's local variable: {u} or {v}."),
           Phrasing("Pick f's local ({u}/{v}):\n{code}"),
           Phrasing("{code}\nIn f's scope only: {u} or {v}?", heldout=True),
           Phrasing("{code}\nOf {u} and {v}, which lives in f?", heldout=True)),
}), _sample_defined)

TASKS = (CHAIN, SCOPE, CONTROL, DEFINED)
