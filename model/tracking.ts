/** The public tracking page's address for a request (issue 22 item 5): the consignee's mail links to it. */
export function trackingPath(code: string, postalCode: string): string {
  return `/#/track?code=${encodeURIComponent(code)}&postal_code=${encodeURIComponent(postalCode)}`;
}
