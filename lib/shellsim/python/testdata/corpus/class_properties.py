class Temperature:
    def __init__(self, c=0.0):
        self._c = c
    @property
    def celsius(self):
        return self._c
    @celsius.setter
    def celsius(self, v):
        if v < -273.15:
            raise ValueError("below absolute zero")
        self._c = v
    @property
    def fahrenheit(self):
        return self._c * 9 / 5 + 32
    @fahrenheit.setter
    def fahrenheit(self, f):
        self.celsius = (f - 32) * 5 / 9
t = Temperature(25)
print(t.celsius, t.fahrenheit)
t.fahrenheit = 212
print(t.celsius, round(t.fahrenheit, 1))
try:
    t.celsius = -300
except ValueError as e:
    print("error:", e)
print(type(Temperature.celsius).__name__, hasattr(t, "kelvin"))
