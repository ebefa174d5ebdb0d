"""Random litmus tests of every architecture weft runs, for comparing
engines: 2-4 threads over 2-3 locations, each thread a few accesses drawn
from its architecture's menu (plain, acquire and release accesses, fences,
address, data and control dependencies, read-modify-writes, exclusive
pairs and the kernel's critical sections), a fixed seed per test.  test_rsmc_families.py compares rsmc with
the enumerator on them.

random_test(arch, seed) returns (name, text).  Each thread's steps are
(kind, location, value) tuples; ASM turns them into the architecture's
instructions.  Loads get registers in order, so conditions can name
them."""
import random

LOCS = ["x", "y", "z"]

# step kinds, and which architectures write them
PLAIN = ["ld", "st"]
MENU = {
    "PPC": PLAIN + ["sync", "lwsync", "isync", "addr", "data", "ctrl", "rmw"],
    "X86": PLAIN + ["mfence", "xchg", "ladd"],
    "AArch64": PLAIN + ["ldar", "stlr", "dmb", "dmbld", "dmbst", "addr", "data", "ctrl", "swp", "ldadd",
                        "excl"],
    "RISCV": PLAIN + ["fence", "fencerw", "addr", "data", "ctrl", "amoswap", "amoadd"],
    "LKMM": PLAIN + ["acq", "rel", "mb", "wmb", "rmb", "data", "ctrl", "cs"],
    "C11": PLAIN + ["acq", "rel", "scld", "scst", "fence", "fencesc", "xchg", "fadd"],
}
ARCHES = sorted(MENU)


def steps(rnd, arch, locs):
    """Per thread, a list of (kind, location, value): 2-4 threads."""
    menu = MENU[arch]
    out = []
    nt = rnd.choice([2, 2, 3, 3, 4])
    for _ in range(nt):
        n = rnd.randint(1, {2: 4, 3: 3, 4: 2}[nt])
        th = []
        for _ in range(n):
            k = rnd.choice(PLAIN * 3 + menu)
            th.append((k, rnd.choice(locs), rnd.randint(1, 2)))
        out.append(th)
    return out


# Per architecture: the registers loads get, where a location's address
# is, and each step kind's lines: {r} and {s} the step's new registers,
# {d} the last register a load of the thread set (a kind that reads it is
# a plain load, "ld", when there is none), {a} the location's address, {v}
# the value written, {l} a new label.
ASM = {
    "PPC": (lambda n: f"r{1 + n}", {"x": "r10", "y": "r11", "z": "r12"}, {
        "ld": ["lwz {r},0({a})"], "addr": ["xor r9,{d},{d}", "lwzx {r},r9,{a}"],
        "st": ["li r8,{v}", "stw r8,0({a})"], "data": ["xor r9,{d},{d}", "addi r9,r9,{v}", "stw r9,0({a})"],
        "ctrl": ["cmpw {d},{d}", "beq {l}", "{l}:", "li r8,{v}", "stw r8,0({a})"],
        "rmw": ["li r8,{v}", "lwarx {r},r0,{a}", "stwcx. r8,r0,{a}"],
        "sync": ["sync"], "lwsync": ["lwsync"], "isync": ["isync"]}),
    "X86": (lambda n: ["EAX", "EBX", "ECX", "EDX", "ESI", "EDI"][n], {"x": "x", "y": "y", "z": "z"}, {
        "ld": ["MOV {r},[{a}]"], "st": ["MOV [{a}],${v}"], "mfence": ["MFENCE"],
        "ladd": ["LOCK ADD [{a}],${v}"], "xchg": ["MOV {r},${v}", "XCHG [{a}],{r}"]}),
    "AArch64": (lambda n: f"W{n}", {"x": "X10", "y": "X11", "z": "X12"}, {
        "ld": ["LDR {r},[{a}]"], "ldar": ["LDAR {r},[{a}]"], "addr": ["EOR W9,{d},{d}", "LDR {r},[{a},W9,SXTW]"],
        "st": ["MOV W8,#{v}", "STR W8,[{a}]"], "stlr": ["MOV W8,#{v}", "STLR W8,[{a}]"],
        "data": ["EOR W9,{d},{d}", "ADD W9,W9,#{v}", "STR W9,[{a}]"],
        "ctrl": ["CBNZ {d},{l}", "{l}:", "MOV W8,#{v}", "STR W8,[{a}]"],
        "swp": ["MOV W8,#{v}", "SWP W8,{r},[{a}]"], "ldadd": ["MOV W8,#{v}", "LDADD W8,{r},[{a}]"],
        "excl": ["MOV W8,#{v}", "LDXR {r},[{a}]", "STXR {s},W8,[{a}]"],
        "dmb": ["DMB SY"], "dmbld": ["DMB LD"], "dmbst": ["DMB ST"]}),
    "RISCV": (lambda n: f"x{20 + n}", {"x": "x10", "y": "x11", "z": "x12"}, {
        "ld": ["lw {r},0({a})"], "addr": ["xor x9,{d},{d}", "add x9,x9,{a}", "lw {r},0(x9)"],
        "st": ["li x8,{v}", "sw x8,0({a})"], "data": ["xor x9,{d},{d}", "addi x9,x9,{v}", "sw x9,0({a})"],
        "ctrl": ["bne {d},x0,{l}", "{l}:", "li x8,{v}", "sw x8,0({a})"],
        "amoswap": ["li x8,{v}", "amoswap.w {r},x8,({a})"], "amoadd": ["li x8,{v}", "amoadd.w {r},x8,({a})"],
        "fence": ["fence rw,rw"], "fencerw": ["fence r,rw"]}),
    "LKMM": (lambda n: f"r{n}", {"x": "x", "y": "y", "z": "z"}, {
        "ld": ["{r} = READ_ONCE(*{a});"], "acq": ["{r} = smp_load_acquire({a});"],
        "st": ["WRITE_ONCE(*{a}, {v});"], "rel": ["smp_store_release({a}, {v});"],
        "data": ["WRITE_ONCE(*{a}, {d} + {v});"], "ctrl": ["if ({d}) WRITE_ONCE(*{a}, {v});"],
        "mb": ["smp_mb();"], "wmb": ["smp_wmb();"], "rmb": ["smp_rmb();"],
        "cs": ["spin_lock(s);", "{r} = READ_ONCE(*{a});", "WRITE_ONCE(*{a}, {v});", "spin_unlock(s);"]}),
    "C11": (lambda n: f"r{n}", {"x": "x", "y": "y", "z": "z"}, {
        **{k: [f"{{r}} = atomic_load_explicit({{a}}, memory_order_{mo});"]
           for k, mo in (("ld", "relaxed"), ("acq", "acquire"), ("scld", "seq_cst"))},
        **{k: [f"atomic_store_explicit({{a}}, {{v}}, memory_order_{mo});"]
           for k, mo in (("st", "relaxed"), ("rel", "release"), ("scst", "seq_cst"))},
        "xchg": ["{r} = atomic_exchange_explicit({a}, {v}, memory_order_acq_rel);"],
        "fadd": ["{r} = atomic_fetch_add_explicit({a}, {v}, memory_order_relaxed);"],
        "fence": ["atomic_thread_fence(memory_order_acq_rel);"],
        "fencesc": ["atomic_thread_fence(memory_order_seq_cst);"]}),
}


class Writer:
    """One thread's instructions, and the registers its loads set."""

    def __init__(self, arch, t):
        self.reg, self.addr, self.kinds = ASM[arch]
        self.t = t
        self.n = 0
        self.lines = []
        self.loaded = []
        self.labels = 0

    def new_reg(self):
        self.n += 1
        r = self.reg(self.n - 1)
        self.loaded.append(r)
        return r

    def step(self, kind, loc, v):
        lines = self.kinds[kind]
        text = "\n".join(lines)
        if "{d}" in text and not self.loaded:
            lines = self.kinds["ld"]
            text = lines[0]
        f = {"a": self.addr[loc], "v": v, "d": self.loaded[-1] if self.loaded else ""}
        if "{r}" in text:
            f["r"] = self.new_reg()
        if "{s}" in text:
            f["s"] = self.new_reg()
        if "{l}" in text:
            f["l"] = f"LC{self.t}{self.labels}"
            self.labels += 1
        self.lines += [line.format(**f) for line in lines]


def condition(rnd, regs, locs):
    picked = rnd.sample(regs, min(rnd.randint(1, 2), len(regs)))
    terms = [f"{r}={rnd.randint(0, 2)}" for r in picked] or [f"{locs[0]}={rnd.randint(0, 2)}"]
    if rnd.random() < 0.3:
        terms.append(f"{rnd.choice(locs)}={rnd.randint(0, 2)}")
    return "exists (" + " /\\ ".join(terms) + ")"


def random_test(arch, seed):
    """Test `seed` of architecture `arch`'s family: (name, litmus text)."""
    rnd = random.Random(f"{arch}-{seed}")
    locs = LOCS[: rnd.randint(2, 3)]
    name = f"{arch}{seed}"
    ws = []
    for t, th in enumerate(steps(rnd, arch, locs)):
        w = Writer(arch, t)
        for k, loc, v in th:
            w.step(k, loc, v)
        ws.append(w)
    regs = [f"{w.t}:{r}" for w in ws for r in w.loaded]
    cond = condition(rnd, regs, locs)
    if arch in ("LKMM", "C11"):
        typ = "int" if arch == "LKMM" else "atomic_int"
        init = " ".join(f"{l}={rnd.randint(0, 1)};" for l in locs)
        lines = [f"C {name}", "{ " + init + " }"]
        for w in ws:
            params = ", ".join([f"{typ} *{l}" for l in locs] + (["spinlock_t *s"] if arch == "LKMM" else []))
            decls = " ".join(f"int r{i};" for i in range(w.n))
            lines.append(f"P{w.t}({params}) {{ {decls} {' '.join(w.lines)} }}")
        return name, "\n".join(lines + [cond]) + "\n"
    init = " ".join(f"{l}={rnd.randint(0, 1)};" for l in locs)
    if arch != "X86":
        areg = {"PPC": "r1", "AArch64": "X1", "RISCV": "x1"}[arch][0]
        base = {"PPC": 10, "AArch64": 10, "RISCV": 10}[arch]
        init += " " + " ".join(f"{w.t}:{areg}{base + i}={l};" for w in ws for i, l in enumerate(locs))
    rows = max(len(w.lines) for w in ws)
    lines = [f"{'X86' if arch == 'X86' else arch} {name}", "{ " + init + " }",
             " | ".join(f"P{w.t}" for w in ws) + " ;"]
    lines += [" | ".join(w.lines[i] if i < len(w.lines) else "" for w in ws) + " ;" for i in range(rows)]
    return name, "\n".join(lines + [cond]) + "\n"
