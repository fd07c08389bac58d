// a list of 1000 nodes built by appending through a tail pointer (a write into the node made
// the run before), each holding 5, then walked: every node holds 5
#include <stdlib.h>
extern void reach_error(void);
struct node { int data; struct node *next; };
int main() {
  struct node *head = 0, *tail = 0;
  for (int i = 0; i < 1000; i++) {
    struct node *n = malloc(sizeof(struct node));
    if (!n) abort();
    n->data = 5;
    n->next = 0;
    if (tail) tail->next = n; else head = n;
    tail = n;
  }
  for (struct node *p = head; p; p = p->next)
    if (p->data != 5) reach_error();
  return 0;
}
