( : "${REQUIRED:?must be set}" ) 2>/dev/null || echo "caught missing REQUIRED"
REQUIRED=ok
echo "${REQUIRED:?must be set}"
