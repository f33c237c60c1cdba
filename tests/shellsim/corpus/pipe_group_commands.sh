{ echo "header"; printf '2\n1\n' | sort; echo "footer"; } > report.txt
cat report.txt
