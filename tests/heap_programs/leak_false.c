// a list of three nodes, then only its head freed: the other two are lost when main
// returns (valid-memtrack FALSE; invalid dereferences and frees: none)
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { int data; struct node *next; };
int main(void) {
  struct node *head = 0;
  for (int i = 0; i < 3; i++) {
    struct node *n = malloc(sizeof *n);
    n->data = __VERIFIER_nondet_int();
    n->next = head;
    head = n;
  }
  if (head->data > 0) {
    while (head) {
      struct node *next = head->next;
      free(head);
      head = next;
    }
  } else {
    free(head);
  }
  return 0;
}
