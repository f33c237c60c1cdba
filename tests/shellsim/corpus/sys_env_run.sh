env -i A=1 B=two env
env -i GREETING=hi sh -c 'echo "$GREETING there"'
env -i X=1 env -u X Y=2 env
FOO=outer env FOO=inner printenv FOO
