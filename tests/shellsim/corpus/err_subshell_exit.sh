result=$( exit 7 )
echo "captured status: $?"
( set -e; false; echo "inside" )
echo "outer: $?"
