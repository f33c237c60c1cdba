log() { local level=${2:-INFO}; echo "[$level] $1"; }
log "starting"
log "oops" ERROR
