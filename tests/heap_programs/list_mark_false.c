// a list of 1000 nodes built by prepending, each holding 2 but the one made at i == 500 (3),
// walked once to set a mark in every node, then walked: the check reaches the wrong one
#include <stdlib.h>
extern void reach_error(void);
struct node { int data; int mark; struct node *next; };
int main() {
  struct node *head = 0;
  for (int i = 0; i < 1000; i++) {
    struct node *n = malloc(sizeof(struct node));
    if (!n) abort();
    n->data = i == 500 ? 3 : 2;
    n->mark = 0;
    n->next = head;
    head = n;
  }
  for (struct node *p = head; p; p = p->next)
    p->mark = 1;
  for (struct node *p = head; p; p = p->next)
    if (p->data != 2) reach_error();
  return 0;
}
