class Student:
    def __init__(self, name, grade, age):
        self.name, self.grade, self.age = name, grade, age
    def __repr__(self):
        return f"{self.name}({self.grade},{self.age})"
students = [Student("ann", 90, 20), Student("bob", 85, 22), Student("cid", 90, 19), Student("dee", 70, 21)]
print(sorted(students, key=lambda s: (-s.grade, s.age)))
from operator import attrgetter
print(sorted(students, key=attrgetter("age")), max(students, key=attrgetter("grade")).name)
by_grade = {}
for s in students:
    by_grade.setdefault(s.grade, []).append(s.name)
print(dict(sorted(by_grade.items(), reverse=True)))
