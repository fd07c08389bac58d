"""Write the acceptance matrix of array and heap patterns: each pattern at sizes 10, 1 000 and
100 000, TRUE and FALSE by construction, as SV-COMP-style tasks (`reach_error` through
`__VERIFIER_assert`, the verdict in the file name for `llumc bench`).

Why generated: one template per pattern keeps the TRUE and FALSE variants and the three sizes
the same program but for the one line that makes the bug, so a difference in answers is the
size's or the bug's, nothing else. Each FALSE variant's error is reached natively by some
input (the bug's line says which). Run `python benchmarks/matrix/generate.py` after editing a
template; `make bench-matrix` checks the programs.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SIZES = (10, 1000, 100000)

PRELUDE = """\
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { ERROR: { reach_error(); abort(); } } }
extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned long);
"""

# pattern -> (body with {N}; {BUG} is the line that differs: (TRUE's, FALSE's))
PATTERNS: dict[str, tuple[str, tuple[str, str]]] = {
    # initialise in a loop, then check every element; FALSE: one cell overwritten
    "fill": ("""\
int a[{N}];
int main(void) {{
  int k = __VERIFIER_nondet_int();
  for (int i = 0; i < {N}; i++) a[i] = 1;
  {BUG}
  for (int i = 0; i < {N}; i++) __VERIFIER_assert(a[i] == 1);
  return 0;
}}
""", ("(void)k;", "if (k >= 0 && k < {N}) a[k] = 0;  /* any k in range */")),
    # copy, then compare; FALSE: the last element is not copied
    "copy": ("""\
int a[{N}], b[{N}];
int main(void) {{
  for (int i = 0; i < {N}; i++) a[i] = __VERIFIER_nondet_int();
  for (int i = 0; i < {N}; i++) {BUG}
  for (int i = 0; i < {N}; i++) __VERIFIER_assert(b[i] == a[i]);
  return 0;
}}
""", ("b[i] = a[i];", "b[i] = i == {N} - 1 ? 0 : a[i];  /* a[{N} - 1] != 0 */")),
    # search a filled array; FALSE: the bound claimed is one too small
    "search": ("""\
int a[{N}];
int main(void) {{
  int x = __VERIFIER_nondet_int(), found = 0;
  for (int i = 0; i < {N}; i++) a[i] = i;
  for (int i = 0; i < {N}; i++) if (a[i] == x) found = 1;
  {BUG}
  return 0;
}}
""", ("__VERIFIER_assert(!found || (x >= 0 && x < {N}));",
      "__VERIFIER_assert(!found || (x >= 0 && x < {N} - 1));  /* x = {N} - 1 */")),
    # a running maximum; FALSE: the last element is skipped
    "running_max": ("""\
int a[{N}];
int main(void) {{
  for (int i = 0; i < {N}; i++) a[i] = __VERIFIER_nondet_int();
  int m = a[0];
  for (int i = 0; i < {BUG}; i++) if (a[i] > m) m = a[i];
  for (int i = 0; i < {N}; i++) __VERIFIER_assert(a[i] <= m);
  return 0;
}}
""", ("{N}", "{N} - 1 /* a[{N} - 1] largest */")),
    # a per-element pattern; FALSE: the last element breaks it
    "pattern": ("""\
int a[{N}];
int main(void) {{
  for (int i = 0; i < {N}; i++) {BUG}
  for (int i = 0; i < {N}; i++) __VERIFIER_assert(a[i] == 2 * i + 1);
  return 0;
}}
""", ("a[i] = 2 * i + 1;", "a[i] = i == {N} - 1 ? 0 : 2 * i + 1;")),
    # an array of structs whose flag says whether its pointer is set; FALSE: the last flag lies
    "struct_flags": ("""\
struct entry {{ int flag; int *p; }};
struct entry t[{N}];
int x;
int main(void) {{
  for (int i = 0; i < {N}; i++) {{
    if (__VERIFIER_nondet_int()) {{ t[i].flag = 1; t[i].p = &x; }} else {{ t[i].flag = 0; t[i].p = 0; }}
  }}
  {BUG}
  for (int i = 0; i < {N}; i++) if (t[i].flag) __VERIFIER_assert(t[i].p != 0);
  return 0;
}}
""", ("", "t[{N} - 1].flag = 1;  /* with p NULL when the last choice was 0 */")),
    # bubble sort, then check the order; FALSE: the last pass is left out
    "sort": ("""\
int a[{N}];
int main(void) {{
  for (int i = 0; i < {N}; i++) a[i] = __VERIFIER_nondet_int();
  for (int pass = 0; pass < {BUG}; pass++)
    for (int j = 0; j + 1 < {N} - pass; j++)
      if (a[j] > a[j + 1]) {{ int t = a[j]; a[j] = a[j + 1]; a[j + 1] = t; }}
  for (int i = 0; i + 1 < {N}; i++) __VERIFIER_assert(a[i] <= a[i + 1]);
  return 0;
}}
""", ("{N}", "{N} - 2 /* descending input */")),
    # a list built by a loop, then walked; FALSE: the last node holds another value
    "list": ("""\
struct node {{ int data; struct node *next; }};
int main(void) {{
  struct node *head = 0;
  for (int i = 0; i < {N}; i++) {{
    struct node *n = malloc(sizeof *n);
    if (!n) abort();
    n->data = {BUG};
    n->next = head;
    head = n;
  }}
  for (struct node *n = head; n; n = n->next) __VERIFIER_assert(n->data == 1);
  return 0;
}}
""", ("1", "i == {N} - 1 ? 0 : 1")),
    # the list walked, then freed node by node (as SV-COMP's list-simple programs end);
    # FALSE: the first node built holds another value
    "list_free": ("""\
struct node {{ int data; struct node *next; }};
extern void free(void *);
int main(void) {{
  struct node *head = 0;
  for (int i = 0; i < {N}; i++) {{
    struct node *n = malloc(sizeof *n);
    if (!n) abort();
    n->data = {BUG};
    n->next = head;
    head = n;
  }}
  for (struct node *n = head; n; n = n->next) __VERIFIER_assert(n->data == 1);
  while (head) {{
    struct node *next = head->next;
    free(head);
    head = next;
  }}
  return 0;
}}
""", ("1", "i == 0 ? 0 : 1")),
    # a search tree built through a pointer to the link to fill (`&root`, `&n->left`), then a
    # search for a negative key; FALSE: the last key inserted is negative
    "tree": ("""\
struct node {{ int data; struct node *left; struct node *right; }};
int main(void) {{
  struct node *root = 0;
  for (int i = 0; i < {N}; i++) {{
    int v = __VERIFIER_nondet_int();
    if (v < 0) v = 0;
    v ^= (int)(((unsigned)i * 40503u) & 0xffffu);  /* equal inputs spread: the tree stays shallow */
    {BUG}
    struct node *n = malloc(sizeof *n);
    if (!n) abort();
    n->data = v;
    n->left = 0;
    n->right = 0;
    struct node **link = &root;
    while (*link) link = v < (*link)->data ? &(*link)->left : &(*link)->right;
    *link = n;
  }}
  int x = __VERIFIER_nondet_int();
  if (x >= 0) x = -1 - x;
  for (struct node *cur = root; cur && cur->data != x; cur = x < cur->data ? cur->left : cur->right)
    __VERIFIER_assert(cur->data >= 0);
  return 0;
}}
""", ("(void)v;", "if (i == {N} - 1) v = -1;  /* any x but 0: the search fails at that node */")),
}


def program(pattern: str, size: int, verdict: bool) -> str:
    body, (good, bad) = PATTERNS[pattern]
    bug = (good if verdict else bad).replace("{N}", str(size))
    return PRELUDE + body.format(N=size, BUG=bug)


def main() -> int:
    written = 0
    for pattern in PATTERNS:
        for size in SIZES:
            for verdict in (True, False):
                name = f"{pattern}_{size}_{'true' if verdict else 'false'}-unreach-call.c"
                (HERE / name).write_text(program(pattern, size, verdict))
                written += 1
    print(f"wrote {written} programs to {HERE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
