/* A complete binary tree of depth d built recursively; its node count is 2^(d+1) - 1,
 * always. */
#include <stdlib.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
struct tree { struct tree *left, *right; };
struct tree *build(int depth) {
  if (depth < 0) return 0;
  struct tree *t = malloc(sizeof *t);
  t->left = build(depth - 1);
  t->right = build(depth - 1);
  return t;
}
int count(struct tree *t) { return t ? 1 + count(t->left) + count(t->right) : 0; }
int main(void) {
  int d = __VERIFIER_nondet_int();
  if (d < 0 || d > 2) return 0;
  if (count(build(d)) != (2 << d) - 1) reach_error();
  return 0;
}
