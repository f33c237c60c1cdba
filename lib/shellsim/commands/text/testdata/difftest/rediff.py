import os, random, sys
ARGV = sys.argv[:]
sys.argv = ['x', 'grep']
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'diff.py')).read().split("cmds = sys.argv")[0])
random.seed(int(ARGV[1]))
BRE = ['\\(a*\\)\\1', '\\1', 'a', 'b', 'ab', '.', '*', '\\(', '\\)', '\\|', '\\{1,2\\}', '\\+', '\\?', '^', '$', '[ab]', '[^a]', '[[:digit:]]', '[a-c]', 'x', '\\.', '[]a]', '\\<', '\\>', '\\w', '\\{,2\\}', '[[:space:]]']
ERE = ['(a|b)\\1', '\\1', 'a', 'b', 'ab', '.', '*', '(', ')', '|', '{1,2}', '+', '?', '^', '$', '[ab]', '[^a]', '[[:digit:]]', '[a-c]', 'x', '\\.', '{', '}', '\\<', '\\>', '{,2}', '[[:alpha:]]+']
TEXT = b'aab ab b\nxa.b a{b}\n1 22 333 a+b\n\nabab ba\n (a) [b] a|b\n'
fails = 0
for i in range(int(ARGV[2])):
    ere = random.random() < 0.5
    toks = ERE if ere else BRE
    pat = ''.join(random.choice(toks) for _ in range(random.randint(1, 4)))
    opts = (['-E'] if ere else []) + random.choice([['-o'], ['-c'], ['-n'], ['-on'], ['-ow'], ['-ox'], ['-oi'], ['-ob']])
    args = ['grep'] + opts + ['-e', pat]
    h = host(args, TEXT); s = sim(args, TEXT)
    if h != s:
        fails += 1
        if fails <= 10: print(args, '\n  host', h, '\n  sim ', s)
print('fails', fails)
