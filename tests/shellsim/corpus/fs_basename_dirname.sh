p=/var/log/app/server.log
basename "$p"
basename "$p" .log
dirname "$p"
dirname "$(dirname "$p")"
