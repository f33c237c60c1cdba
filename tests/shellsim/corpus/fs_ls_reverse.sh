touch alpha beta gamma
ls -r
