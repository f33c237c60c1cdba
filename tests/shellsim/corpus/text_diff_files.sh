printf 'line1\nline2\nline3\n' > old.txt
printf 'line1\nline2 changed\nline3\n' > new.txt
diff old.txt new.txt
echo "exit=$?"
diff old.txt old.txt && echo same
