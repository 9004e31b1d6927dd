/**
 * Images (profile pictures, company logos) are stored in the file store (lib/files.ts), area `media`, with random,
 * unguessable names and served at /media/<name> without the API header, because an <img> cannot
 * send headers; the name is the capability. Documents of requests are never served this way.
 */
export const mediaUrl = (name: string | null | undefined) => (name ? `/media/${name}` : null);
