cat > users.txt <<'EOF'
root:x:0:0:root:/root:/bin/bash
daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin
alice:x:1000:1000:Alice:/home/alice:/bin/bash
EOF
cut -d: -f1,7 users.txt
awk -F: '$3 >= 1000 {print $1}' users.txt
