# Usage: git -C MEGATRON show d98e8a64ddf34856e74b24714e3bedb2f5a39553:megatron/core/pipeline_parallel/schedules.py > /tmp/schedules.py
#        python3 megatron_order.py /tmp/schedules.py > pipeline_order.golden
# Megatron-LM's pipeline order per stage, from schedules.py at the mirror's HEAD:
# get_schedule_table is exec'd from the file itself; the warm-up count and the
# warm-up / 1F1B / cool-down loops follow get_pp_rank_microbatches and
# forward_backward_pipelining_{with,without}_interleaving.
import ast, sys
src = open(sys.argv[1]).read()
mod = ast.parse(src)
ns = {}
for node in mod.body:
    if isinstance(node, ast.FunctionDef) and node.name == 'get_schedule_table':
        exec(compile(ast.Module([node], []), 'schedules.py', 'exec'), ns)
table = ns['get_schedule_table']

def order(p, m, v, r):
    if v == 1:
        w = min(p - r - 1, m)
        out = [('F', i, 0) for i in range(w)]
        for i in range(m - w):
            out += [('F', i + w, 0), ('B', i, 0)]
        out += [('B', i, 0) for i in range(m - w, m)]
        return out
    t = table(m, v, p)  # microbatch_group_size_per_vp_stage = p
    total = m * v
    w = min((p - r - 1) * 2 + (v - 1) * p, total)
    f = lambda k: ('F', t[k][0], t[k][1])
    b = lambda k: ('B', t[k][0], v - 1 - t[k][1])
    out = [f(k) for k in range(w)]
    for k in range(total - w):
        out += [f(k + w), b(k)]
    out += [b(k) for k in range(total - w, total)]
    return out

for p, m, v in [(4, 8, 1), (2, 4, 2), (4, 8, 2), (3, 6, 3)]:
    for r in range(p):
        print(f"p{p} m{m} v{v} stage {r}:", " ".join(f"{x}{mb}.{c}" for x, mb, c in order(p, m, v, r)))
