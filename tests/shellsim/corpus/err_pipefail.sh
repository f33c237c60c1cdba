false | true
echo "no pipefail: $?"
set -o pipefail
false | true
echo "pipefail: $?"
