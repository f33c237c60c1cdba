set -e
echo "before"
false
echo "never printed"
