// a list of 1 000 nodes freed node by node, but the node built 501st is freed twice: valid-free FALSE
#include <stdlib.h>
struct node { int data; struct node *next; };
int main() {
  struct node *head = 0, *middle = 0;
  for (int i = 0; i < 1000; i++) {
    struct node *n = malloc(sizeof(struct node));
    if (!n) abort();
    n->data = i;
    n->next = head;
    head = n;
    if (i == 500) middle = n;
  }
  while (head) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  free(middle);
  return 0;
}
