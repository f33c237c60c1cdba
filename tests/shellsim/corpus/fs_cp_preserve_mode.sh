echo '#!/bin/sh' > script.sh
chmod 755 script.sh
cp script.sh copy.sh
[ -x copy.sh ] && echo "copy is executable"
