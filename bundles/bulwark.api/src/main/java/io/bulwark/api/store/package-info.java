/**
 * The appliance's one transactional store, on which every area keeps its records: a {@link
 * io.bulwark.api.store.RecordStore} of named maps ({@link io.bulwark.api.store.StoreMap}), each
 * with the {@link io.bulwark.api.store.RecordFormat} of its records (a format version per record,
 * so that a later release reads what an earlier one wrote), where one write is one transaction
 * across maps, durable (it survives {@code kill -9}) before it returns; and the exception that says
 * the store refused a call and nothing was lost. An area implements its repository on it, in its
 * own bundle, without editing the store.
 */
@Export
@Version("1.1.0")
package io.bulwark.api.store;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
