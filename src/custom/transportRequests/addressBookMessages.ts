/** Texts of the booking form's address book (the picker and the "save" offer; issue 34), in it, en, fr. */
const it = {
  address_book_picker: {
    pick: 'Scegli dalla rubrica',
    pick_hint_pickup: 'Compila il ritiro con un luogo della tua rubrica indirizzi.',
    pick_hint_delivery: 'Compila la consegna con un luogo della tua rubrica indirizzi.',
    searching: 'Ricerca…',
    empty: 'Nessun luogo nella rubrica',
    none_found: 'Nessun luogo trovato',
    failed: 'Rubrica non disponibile',
    other_place: 'CAP o paese diverso dal preventivo',
    picked: 'Dalla rubrica: %{name}',
    save: 'Salva nella rubrica',
    save_hint: 'Dopo l’invio della richiesta questo luogo viene aggiunto alla tua rubrica indirizzi.',
    saved: '%{smart_count} luogo salvato nella rubrica |||| %{smart_count} luoghi salvati nella rubrica',
    not_saved: '«%{name}» non salvato nella rubrica: %{reason}',
    contact: 'Referente',
    phone: 'Tel.',
    email: 'E-mail',
    hours: 'Orari',
  },
};

const en: typeof it = {
  address_book_picker: {
    pick: 'Pick from the address book',
    pick_hint_pickup: 'Fills the pickup with a place of your address book.',
    pick_hint_delivery: 'Fills the delivery with a place of your address book.',
    searching: 'Searching…',
    empty: 'No place in the address book',
    none_found: 'No place found',
    failed: 'Address book unavailable',
    other_place: 'Postal code or country other than the quote’s',
    picked: 'From the address book: %{name}',
    save: 'Save in the address book',
    save_hint: 'Once the request is sent, this place is added to your address book.',
    saved: '%{smart_count} place saved in the address book |||| %{smart_count} places saved in the address book',
    not_saved: '“%{name}” not saved in the address book: %{reason}',
    contact: 'Contact',
    phone: 'Phone',
    email: 'E-mail',
    hours: 'Hours',
  },
};

const fr: typeof it = {
  address_book_picker: {
    pick: 'Choisir dans le carnet d’adresses',
    pick_hint_pickup: 'Remplit l’enlèvement avec un lieu de votre carnet d’adresses.',
    pick_hint_delivery: 'Remplit la livraison avec un lieu de votre carnet d’adresses.',
    searching: 'Recherche…',
    empty: 'Aucun lieu dans le carnet d’adresses',
    none_found: 'Aucun lieu trouvé',
    failed: 'Carnet d’adresses indisponible',
    other_place: 'Code postal ou pays différent du devis',
    picked: 'Du carnet d’adresses : %{name}',
    save: 'Enregistrer dans le carnet d’adresses',
    save_hint: 'Après l’envoi de la demande, ce lieu est ajouté à votre carnet d’adresses.',
    saved: '%{smart_count} lieu enregistré dans le carnet d’adresses |||| %{smart_count} lieux enregistrés dans le carnet d’adresses',
    not_saved: '« %{name} » non enregistré dans le carnet d’adresses : %{reason}',
    contact: 'Contact',
    phone: 'Tél.',
    email: 'E-mail',
    hours: 'Horaires',
  },
};

export const addressBookMessages = { it, en, fr };
