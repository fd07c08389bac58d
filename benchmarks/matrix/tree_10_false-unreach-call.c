extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { ERROR: { reach_error(); abort(); } } }
extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned long);
struct node { int data; struct node *left; struct node *right; };
int main(void) {
  struct node *root = 0;
  for (int i = 0; i < 10; i++) {
    int v = __VERIFIER_nondet_int();
    if (v < 0) v = 0;
    v ^= (int)(((unsigned)i * 40503u) & 0xffffu);  /* equal inputs spread: the tree stays shallow */
    if (i == 10 - 1) v = -1;  /* any x but 0: the search fails at that node */
    struct node *n = malloc(sizeof *n);
    if (!n) abort();
    n->data = v;
    n->left = 0;
    n->right = 0;
    struct node **link = &root;
    while (*link) link = v < (*link)->data ? &(*link)->left : &(*link)->right;
    *link = n;
  }
  int x = __VERIFIER_nondet_int();
  if (x >= 0) x = -1 - x;
  for (struct node *cur = root; cur && cur->data != x; cur = x < cur->data ? cur->left : cur->right)
    __VERIFIER_assert(cur->data >= 0);
  return 0;
}
