mkdir -p app/{bin,lib/core,etc}
touch app/bin/run app/lib/core/mod.so app/etc/app.conf
find app -type f | sort | sed 's|[^/]*/|  |g'
