set -e
if false; then echo no; fi
false || echo "recovered"
! false
echo "still running"
