echo a | xargs false
echo "status=$?"
echo a | xargs sh -c 'exit 255' 2>/dev/null
echo "status=$?"
