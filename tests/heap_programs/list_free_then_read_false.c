// a list of 1000 nodes: each node freed before its next field is read: valid-deref FALSE
#include <stdlib.h>
struct node { int data; struct node *next; };
int main() {
  struct node *head = 0;
  for (int i = 0; i < 1000; i++) {
    struct node *n = malloc(sizeof(struct node));
    if (!n) abort();
    n->data = i;
    n->next = head;
    head = n;
  }
  while (head) {
    free(head);
    head = head->next;
  }
  return 0;
}
