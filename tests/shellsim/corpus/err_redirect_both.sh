{ echo stdout-line; echo stderr-line >&2; } > all.log 2>&1
sort all.log
