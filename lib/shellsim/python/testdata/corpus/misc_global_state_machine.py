transitions = {("idle", "start"): "running", ("running", "pause"): "paused", ("paused", "start"): "running", ("running", "stop"): "idle"}
state = "idle"
history = [state]
for ev in ["start", "pause", "start", "stop", "bogus"]:
    state = transitions.get((state, ev), state)
    history.append(state)
print(" -> ".join(history))
counter = 0
def bump():
    global counter
    counter += 1
    return counter
print([bump() for _ in range(3)], counter)
