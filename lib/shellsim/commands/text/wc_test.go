package text

import "testing"

// Fixtures shared by several cases below.
var wcFiles1 = map[string]string{"big": `1
2
3
4
5
6
7
8
9
10
11
12
13
14
15
16
17
18
19
20
21
22
23
24
25
26
27
28
29
30
31
32
33
34
35
36
37
38
39
40
41
42
43
44
45
46
47
48
49
50
51
52
53
54
55
56
57
58
59
60
61
62
63
64
65
66
67
68
69
70
71
72
73
74
75
76
77
78
79
80
81
82
83
84
85
86
87
88
89
90
91
92
93
94
95
96
97
98
99
100
101
102
103
104
105
106
107
108
109
110
111
112
113
114
115
116
117
118
119
120
121
122
123
124
125
126
127
128
129
130
131
132
133
134
135
136
137
138
139
140
141
142
143
144
145
146
147
148
149
150
151
152
153
154
155
156
157
158
159
160
161
162
163
164
165
166
167
168
169
170
171
172
173
174
175
176
177
178
179
180
181
182
183
184
185
186
187
188
189
190
191
192
193
194
195
196
197
198
199
200
`, "d/": "", "f1": "a b\tc\n\x01 \x80 x\n", "n5": `1
2
3
4
5`}
var wcFiles2 = map[string]string{"L": "n5\x00f1\x00", "big": `1
2
3
4
5
6
7
8
9
10
11
12
13
14
15
16
17
18
19
20
21
22
23
24
25
26
27
28
29
30
31
32
33
34
35
36
37
38
39
40
41
42
43
44
45
46
47
48
49
50
51
52
53
54
55
56
57
58
59
60
61
62
63
64
65
66
67
68
69
70
71
72
73
74
75
76
77
78
79
80
81
82
83
84
85
86
87
88
89
90
91
92
93
94
95
96
97
98
99
100
101
102
103
104
105
106
107
108
109
110
111
112
113
114
115
116
117
118
119
120
121
122
123
124
125
126
127
128
129
130
131
132
133
134
135
136
137
138
139
140
141
142
143
144
145
146
147
148
149
150
151
152
153
154
155
156
157
158
159
160
161
162
163
164
165
166
167
168
169
170
171
172
173
174
175
176
177
178
179
180
181
182
183
184
185
186
187
188
189
190
191
192
193
194
195
196
197
198
199
200
`, "d/": "", "f1": "a b\tc\n\x01 \x80 x\n", "n5": `1
2
3
4
5`}

// Goldens recorded from GNU coreutils 9.1 (LC_ALL=C) on the build host.
func TestWc(t *testing.T) {
	runTable(t, []tc{
		{args: []string{"wc", "n5", "f1"}, files: wcFiles1, out: ` 4  5  9 n5
 2  4 12 f1
 6  9 21 total
`},
		{args: []string{"wc"}, files: wcFiles1, stdin: `hello world
foo
`, out: "      2       3      16\n"},
		{args: []string{"wc", "-l"}, files: wcFiles1, stdin: `hello world
foo
`, out: "2\n"},
		{args: []string{"wc", "-c", "n5"}, files: wcFiles1, out: "9 n5\n"},
		{args: []string{"wc", "-lw", "n5", "nosuch"}, files: wcFiles1, out: `4 5 n5
4 5 total
`, err: "wc: nosuch: No such file or directory\n", status: 1},
		{args: []string{"wc", "d"}, files: wcFiles1, out: "      0       0       0 d\n", err: "wc: d: Is a directory\n", status: 1},
		{args: []string{"wc", "-l", "n5", "f1"}, files: wcFiles1, out: ` 4 n5
 2 f1
 6 total
`},
		{args: []string{"wc", "-l", "-", "n5"}, files: wcFiles1, stdin: "hi\n", out: `      1 -
      4 n5
      5 total
`},
		{args: []string{"wc", "-lc"}, files: wcFiles1, stdin: "hi\n", out: "      1       3\n"},
		{args: []string{"wc", "-c", "-"}, files: wcFiles1, stdin: "hi\n", out: "3 -\n"},
		{args: []string{"wc", "nosuch", "n5"}, files: wcFiles1, out: `4 5 9 n5
4 5 9 total
`, err: "wc: nosuch: No such file or directory\n", status: 1},
		{args: []string{"wc", "-l", "big", "n5"}, files: wcFiles1, out: `200 big
  4 n5
204 total
`},
		{args: []string{"wc", "-c", "d"}, files: wcFiles1, out: "0 d\n", err: "wc: d: Is a directory\n", status: 1},
		{args: []string{"wc", "-lc", "d", "n5"}, files: wcFiles1, out: `      0       0 d
      4       9 n5
      4       9 total
`, err: "wc: d: Is a directory\n", status: 1},
		{args: []string{"wc", "-w"}, files: wcFiles1, stdin: "\x01 a\n", out: "1\n"},
		{args: []string{"wc", "-w"}, files: wcFiles1, stdin: "a\x0bb\x0cc\x0dd", out: "4\n"},
		{args: []string{"wc", "-L"}, files: wcFiles1, stdin: "\ta\x01b\nxy\n", out: "10\n"},
		{args: []string{"wc", "-L", "n5"}, files: wcFiles1, out: "1 n5\n"},
		{args: []string{"wc", "-m"}, files: wcFiles1, stdin: "h\xc3\xa9llo\n", out: "7\n"},
		{args: []string{"wc", "-m"}, files: wcFiles1, stdin: "h\xc3\xa9llo\n", env: map[string]string{"LC_ALL": "C.UTF-8"}, out: "6\n"},
		{args: []string{"wc", "-mwlcL", "f1"}, files: wcFiles1, out: " 2  4 12 12  9 f1\n"},
		{args: []string{"wc", "--files0-from=x"}, files: wcFiles1, out: "", err: "wc: cannot open 'x' for reading: No such file or directory\n", status: 1},
		{args: []string{"wc", "--files0-from=L"}, files: wcFiles2, out: ` 4  5  9 n5
 2  4 12 f1
 6  9 21 total
`},
		{args: []string{"wc", "--files0-from=L", "n5"}, files: wcFiles2, out: "", err: `wc: extra operand 'n5'
file operands cannot be combined with --files0-from
Try 'wc --help' for more information.
`, status: 1},
	})
}
