mkdir -p d1/sub
touch d1/x d1/y
ls d1
ls -d d1
ls d1 nothere 2>/dev/null
echo "status=$?"
