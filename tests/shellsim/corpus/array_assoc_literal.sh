declare -A colors=([red]="#f00" [green]="#0f0" [blue]="#00f")
for c in blue green red; do printf '%-6s %s\n' "$c" "${colors[$c]}"; done
unset 'colors[green]'
echo "${#colors[@]}"
