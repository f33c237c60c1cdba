echo -n "" | xargs echo "ran with:"
echo -n "" | xargs -r echo "should not run"
echo "status=$?"
