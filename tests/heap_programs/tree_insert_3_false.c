// a search tree of 3 nodes built through a pointer to the link to fill (`&root` or `&n->left`); the last node inserted holds -1, which the search for a negative x reaches (FALSE)
#include <stdlib.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
struct node { int data; struct node *left; struct node *right; };
int main(void) {
  struct node *root = 0;
  for (int i = 0; i < 3; i++) {
    int v = __VERIFIER_nondet_int();
    if (v < 0) v = 0;
    if (i == 2) v = -1;
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
  struct node *cur = root;
  while (cur) {
    if (cur->data < 0) reach_error();
    if (x == cur->data) break;
    cur = x < cur->data ? cur->left : cur->right;
  }
  return 0;
}
