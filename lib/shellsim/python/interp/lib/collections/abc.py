"""Abstract base classes for containers (names only, for isinstance checks)."""
Iterable = object
Iterator = object
Mapping = dict
MutableMapping = dict
Sequence = list
MutableSequence = list
Set = set
MutableSet = set
Callable = object
Hashable = object
Sized = object
Container = object
Generator = object
