stack = []
for tok in "3 4 + 2 * 7 -".split():
    if tok.isdigit():
        stack.append(int(tok))
    else:
        b, a = stack.pop(), stack.pop()
        stack.append({"+": a + b, "-": a - b, "*": a * b}[tok])
print(stack)
def balanced(s):
    pairs = {")": "(", "]": "[", "}": "{"}
    st = []
    for c in s:
        if c in "([{":
            st.append(c)
        elif c in pairs:
            if not st or st.pop() != pairs[c]:
                return False
    return not st
print([balanced(s) for s in ["()[]{}", "([)]", "((", ""]])
