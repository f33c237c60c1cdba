x, y = 3, 4.56789
name = "world"
print(f"{x=}", f"{y=:.2f}", f"{name!r:>10}", f"{x:{y:.0f}}", f"{{literal}}", f"{x*2+1}")
print(f"{'nested' + f'{x}'}", f"{[1, 2][0]}", f"{dict(a=1)['a']}", f"{x:>{x}}|")
w = 10
print(f"{'centered':^{w}}|", f"{3.14159:.{x}f}", f"{1234567:,d}", f"{0.256:.1%}", f"{255:#06x}")
print(f"""triple {x}
line""")
