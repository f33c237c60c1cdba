#!/bin/sh
cd /workspace
grep -c ERROR app.log > answer.txt
