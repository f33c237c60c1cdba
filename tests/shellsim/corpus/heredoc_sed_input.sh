sed 's/^/> /' <<EOF
quoted
reply
EOF
