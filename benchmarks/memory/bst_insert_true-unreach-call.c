extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", __FILE__, __LINE__, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!cond) { ERROR: { reach_error(); abort(); } } }
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern void *malloc(unsigned long);
extern void free(void *);
struct tree { int key; struct tree *left, *right; };
static struct tree *insert(struct tree *t, struct tree *n) {
  if (!t) return n;
  if (n->key < t->key) t->left = insert(t->left, n); else t->right = insert(t->right, n);
  return t;
}
int main(void) {
  struct tree *x = malloc(sizeof *x), *y = malloc(sizeof *y), *z = malloc(sizeof *z);
  x->key = __VERIFIER_nondet_int(); y->key = __VERIFIER_nondet_int(); z->key = __VERIFIER_nondet_int();
  x->left = x->right = y->left = y->right = z->left = z->right = 0;
  struct tree *root = insert(insert(insert(0, x), y), z);
  if (root->left) __VERIFIER_assert(root->left->key < root->key);
  if (root->right) __VERIFIER_assert(root->right->key >= root->key);
  return 0;
}
