for w in hello big world; do printf '%s ' "${w^}"; done; echo
