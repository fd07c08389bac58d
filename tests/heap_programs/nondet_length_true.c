// a list of nondeterministic length whose every node holds 1: correct for every length; the
// allocations are unbounded, so no pool is large enough, and the summary's far nodes take the
// runs past its numbered ones
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
struct node { int data; struct node *next; };
int main() {
  int n = __VERIFIER_nondet_int();
  struct node *head = 0;
  for (int i = 0; i < n; i++) {
    struct node *x = malloc(sizeof(struct node));
    x->data = 1;
    x->next = head;
    head = x;
  }
  for (struct node *p = head; p; p = p->next)
    if (p->data != 1) reach_error();
  return 0;
}
