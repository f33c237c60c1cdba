yes line | head -3
