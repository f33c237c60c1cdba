class ValidationError(Exception):
    def __init__(self, field, message):
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")
class Schema:
    required = ("name", "age")
    def validate(self, record):
        errors = []
        for f in self.required:
            if f not in record:
                errors.append(ValidationError(f, "missing"))
        if "age" in record and not isinstance(record["age"], int):
            errors.append(ValidationError("age", "must be int"))
        return errors
s = Schema()
for rec in [{"name": "a", "age": 3}, {"name": "b"}, {"age": "x"}]:
    errs = s.validate(rec)
    print(rec, [str(e) for e in errs] or "valid")
