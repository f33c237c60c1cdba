import re
tpl = "Hello {{ name }}! You have {{ count }} new {{ noun }}."
ctx = {"name": "Ann", "count": 3, "noun": "messages"}
print(re.sub(r"\{\{\s*(\w+)\s*\}\}", lambda m: str(ctx[m.group(1)]), tpl))
def render_list(items):
    return "\n".join(f"{i}. {item}" for i, item in enumerate(items, 1))
print(render_list(["alpha", "beta", "gamma"]))
