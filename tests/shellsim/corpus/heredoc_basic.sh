cat <<EOF
Line one
Line two
EOF
